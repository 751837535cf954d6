from fourfold.coordinator.cli import main

raise SystemExit(main())
