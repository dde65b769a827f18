"""``python -m gammon``: the ``gammon`` command."""

from gammon.cli import main

raise SystemExit(main())
