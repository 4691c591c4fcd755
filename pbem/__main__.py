"""``python -m pbem``: the ``pbem`` command."""

from pbem.cli import main

if __name__ == "__main__":
    main()
