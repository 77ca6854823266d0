"""`python -m ajb_sample`: write the synthetic sample."""

from ajb_sample.build import main

main()
