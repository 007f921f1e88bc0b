from .front.client import main

main()
