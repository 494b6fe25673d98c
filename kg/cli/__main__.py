"""``python -m kg.cli``: the same as the ``kg`` script."""

from kg.cli import main

main()
