from deberc_net.cli import main

raise SystemExit(main())
