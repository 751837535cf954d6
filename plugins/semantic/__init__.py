"""The semantic modality."""
