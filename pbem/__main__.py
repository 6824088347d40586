"""`python -m pbem`: the same as the `pbem` command."""
from .launch import main

main()
