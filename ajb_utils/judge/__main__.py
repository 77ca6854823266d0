"""``python -m ajb_utils.judge`` entry point."""

from ajb_utils.judge.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
