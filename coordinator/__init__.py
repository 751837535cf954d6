"""The coordinator: intent, weights, fan-out, fusion, the public gRPC service and the CLI."""
