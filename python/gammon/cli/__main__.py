"""``python -m gammon.cli``: the ``gammon`` command, as ``python -m gammon`` runs it too."""

import sys

from gammon.cli import main

sys.exit(main())
