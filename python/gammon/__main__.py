from gammon.cli import main

raise SystemExit(main())
