"""Ingestion: walk repositories as git sees them, detect languages, cut segments."""
