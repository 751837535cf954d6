"""The host's index side: ingestion (walk, read, segment), the on-disk store of generations, and
the generation builder that drives every modality's ``build`` hook.

Modalities (``fourfold.plugins``) know nothing of this package beyond the values it hands them
(segments, a build context); the coordinator and the workers use it to build and open generations.
"""
