"""The structural modality: tree-sitter definitions, signatures and kinds.

``extract(source, language)`` is what ingestion calls per file; ``parse_symbol_query`` is how
a query is read as a definition lookup (shared with the coordinator).
"""

from fourfold.plugins.structural.extract import SUPPORTED_LANGUAGES, extract, is_supported
from fourfold.plugins.structural.query import SymbolQuery, parse_symbol_query

__all__ = ["SUPPORTED_LANGUAGES", "SymbolQuery", "extract", "is_supported", "parse_symbol_query"]
