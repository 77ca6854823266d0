"""``python -m ajb_judge`` entry point."""

from ajb_judge.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
