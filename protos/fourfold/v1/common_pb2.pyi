from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class ModalityContribution(_message.Message):
    __slots__ = ("rank", "contribution", "score")
    RANK_FIELD_NUMBER: _ClassVar[int]
    CONTRIBUTION_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    rank: int
    contribution: float
    score: float
    def __init__(self, rank: _Optional[int] = ..., contribution: _Optional[float] = ..., score: _Optional[float] = ...) -> None: ...

class Hit(_message.Message):
    __slots__ = ("repo", "path", "start_line", "end_line", "symbol", "kind", "language", "score", "segment_id", "match_lines", "centrality", "modalities", "demoted", "snippet", "confidence", "revision", "commit")
    class ModalitiesEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: ModalityContribution
        def __init__(self, key: _Optional[str] = ..., value: _Optional[_Union[ModalityContribution, _Mapping]] = ...) -> None: ...
    REPO_FIELD_NUMBER: _ClassVar[int]
    PATH_FIELD_NUMBER: _ClassVar[int]
    START_LINE_FIELD_NUMBER: _ClassVar[int]
    END_LINE_FIELD_NUMBER: _ClassVar[int]
    SYMBOL_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    LANGUAGE_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    SEGMENT_ID_FIELD_NUMBER: _ClassVar[int]
    MATCH_LINES_FIELD_NUMBER: _ClassVar[int]
    CENTRALITY_FIELD_NUMBER: _ClassVar[int]
    MODALITIES_FIELD_NUMBER: _ClassVar[int]
    DEMOTED_FIELD_NUMBER: _ClassVar[int]
    SNIPPET_FIELD_NUMBER: _ClassVar[int]
    CONFIDENCE_FIELD_NUMBER: _ClassVar[int]
    REVISION_FIELD_NUMBER: _ClassVar[int]
    COMMIT_FIELD_NUMBER: _ClassVar[int]
    repo: str
    path: str
    start_line: int
    end_line: int
    symbol: str
    kind: str
    language: str
    score: float
    segment_id: str
    match_lines: _containers.RepeatedScalarFieldContainer[int]
    centrality: float
    modalities: _containers.MessageMap[str, ModalityContribution]
    demoted: bool
    snippet: str
    confidence: float
    revision: str
    commit: str
    def __init__(self, repo: _Optional[str] = ..., path: _Optional[str] = ..., start_line: _Optional[int] = ..., end_line: _Optional[int] = ..., symbol: _Optional[str] = ..., kind: _Optional[str] = ..., language: _Optional[str] = ..., score: _Optional[float] = ..., segment_id: _Optional[str] = ..., match_lines: _Optional[_Iterable[int]] = ..., centrality: _Optional[float] = ..., modalities: _Optional[_Mapping[str, ModalityContribution]] = ..., demoted: _Optional[bool] = ..., snippet: _Optional[str] = ..., confidence: _Optional[float] = ..., revision: _Optional[str] = ..., commit: _Optional[str] = ...) -> None: ...
