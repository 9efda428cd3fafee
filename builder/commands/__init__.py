"""One module per subcommand; each defines ``register(subparsers)`` and ``run(args) -> int``."""
