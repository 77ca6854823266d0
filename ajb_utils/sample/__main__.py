"""`python -m ajb_utils.sample`: write the synthetic sample."""

from ajb_utils.sample.build import main

main()
