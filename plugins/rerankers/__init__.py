"""Built-in rerankers, registered through ``fourfold_register_rerankers``."""
