import sys

from pokeview.cli import main

sys.exit(main())
