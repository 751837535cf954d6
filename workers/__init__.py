"""Hosting: Ray actors that serve modality shards over gRPC, discovery, launch, distributed builds."""
