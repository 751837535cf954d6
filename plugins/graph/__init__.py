"""The graph modality."""
