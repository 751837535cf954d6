"""The text modality: trigram index shards; literal, regex (RE2 semantics) and BM25 search.

``build`` puts each file back together from its segments, indexes the case-folded trigrams of
every file and the identifier terms of every segment; ``TextShard.search`` narrows candidate
files with the trigram index, verifies them line by line as ripgrep would, and reports each match
in the segment that owns its line.
"""

from fourfold.plugins.text.plugin import TextModality
from fourfold.plugins.text.shard import MODES, TextShard

__all__ = ["MODES", "TextModality", "TextShard"]
