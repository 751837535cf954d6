"""The text modality."""
