"""The structural modality."""
