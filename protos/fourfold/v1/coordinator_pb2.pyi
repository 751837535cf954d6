from fourfold.v1 import common_pb2 as _common_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class SearchRequest(_message.Message):
    __slots__ = ("query", "k", "repos", "intent", "preset", "modalities", "weights", "deadline_ms", "path_glob", "languages", "case_sensitive", "options", "with_snippets", "cursor")
    class WeightsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: float
        def __init__(self, key: _Optional[str] = ..., value: _Optional[float] = ...) -> None: ...
    class OptionsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    QUERY_FIELD_NUMBER: _ClassVar[int]
    K_FIELD_NUMBER: _ClassVar[int]
    REPOS_FIELD_NUMBER: _ClassVar[int]
    INTENT_FIELD_NUMBER: _ClassVar[int]
    PRESET_FIELD_NUMBER: _ClassVar[int]
    MODALITIES_FIELD_NUMBER: _ClassVar[int]
    WEIGHTS_FIELD_NUMBER: _ClassVar[int]
    DEADLINE_MS_FIELD_NUMBER: _ClassVar[int]
    PATH_GLOB_FIELD_NUMBER: _ClassVar[int]
    LANGUAGES_FIELD_NUMBER: _ClassVar[int]
    CASE_SENSITIVE_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    WITH_SNIPPETS_FIELD_NUMBER: _ClassVar[int]
    CURSOR_FIELD_NUMBER: _ClassVar[int]
    query: str
    k: int
    repos: _containers.RepeatedScalarFieldContainer[str]
    intent: str
    preset: str
    modalities: _containers.RepeatedScalarFieldContainer[str]
    weights: _containers.ScalarMap[str, float]
    deadline_ms: int
    path_glob: str
    languages: _containers.RepeatedScalarFieldContainer[str]
    case_sensitive: bool
    options: _containers.ScalarMap[str, str]
    with_snippets: bool
    cursor: str
    def __init__(self, query: _Optional[str] = ..., k: _Optional[int] = ..., repos: _Optional[_Iterable[str]] = ..., intent: _Optional[str] = ..., preset: _Optional[str] = ..., modalities: _Optional[_Iterable[str]] = ..., weights: _Optional[_Mapping[str, float]] = ..., deadline_ms: _Optional[int] = ..., path_glob: _Optional[str] = ..., languages: _Optional[_Iterable[str]] = ..., case_sensitive: _Optional[bool] = ..., options: _Optional[_Mapping[str, str]] = ..., with_snippets: _Optional[bool] = ..., cursor: _Optional[str] = ...) -> None: ...

class StageTiming(_message.Message):
    __slots__ = ("stage", "ms")
    STAGE_FIELD_NUMBER: _ClassVar[int]
    MS_FIELD_NUMBER: _ClassVar[int]
    stage: str
    ms: float
    def __init__(self, stage: _Optional[str] = ..., ms: _Optional[float] = ...) -> None: ...

class SearchResponse(_message.Message):
    __slots__ = ("intent", "confidence", "fusion_strategy", "preset", "partial", "missing_shards", "hits", "total_candidates", "timings", "generation", "notes", "weights", "rerank", "no_confident_match", "total_matches", "total_files", "total_exact", "complete", "cursor")
    class WeightsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: float
        def __init__(self, key: _Optional[str] = ..., value: _Optional[float] = ...) -> None: ...
    INTENT_FIELD_NUMBER: _ClassVar[int]
    CONFIDENCE_FIELD_NUMBER: _ClassVar[int]
    FUSION_STRATEGY_FIELD_NUMBER: _ClassVar[int]
    PRESET_FIELD_NUMBER: _ClassVar[int]
    PARTIAL_FIELD_NUMBER: _ClassVar[int]
    MISSING_SHARDS_FIELD_NUMBER: _ClassVar[int]
    HITS_FIELD_NUMBER: _ClassVar[int]
    TOTAL_CANDIDATES_FIELD_NUMBER: _ClassVar[int]
    TIMINGS_FIELD_NUMBER: _ClassVar[int]
    GENERATION_FIELD_NUMBER: _ClassVar[int]
    NOTES_FIELD_NUMBER: _ClassVar[int]
    WEIGHTS_FIELD_NUMBER: _ClassVar[int]
    RERANK_FIELD_NUMBER: _ClassVar[int]
    NO_CONFIDENT_MATCH_FIELD_NUMBER: _ClassVar[int]
    TOTAL_MATCHES_FIELD_NUMBER: _ClassVar[int]
    TOTAL_FILES_FIELD_NUMBER: _ClassVar[int]
    TOTAL_EXACT_FIELD_NUMBER: _ClassVar[int]
    COMPLETE_FIELD_NUMBER: _ClassVar[int]
    CURSOR_FIELD_NUMBER: _ClassVar[int]
    intent: str
    confidence: float
    fusion_strategy: str
    preset: str
    partial: bool
    missing_shards: _containers.RepeatedScalarFieldContainer[str]
    hits: _containers.RepeatedCompositeFieldContainer[_common_pb2.Hit]
    total_candidates: int
    timings: _containers.RepeatedCompositeFieldContainer[StageTiming]
    generation: str
    notes: _containers.RepeatedScalarFieldContainer[str]
    weights: _containers.ScalarMap[str, float]
    rerank: str
    no_confident_match: bool
    total_matches: int
    total_files: int
    total_exact: bool
    complete: bool
    cursor: str
    def __init__(self, intent: _Optional[str] = ..., confidence: _Optional[float] = ..., fusion_strategy: _Optional[str] = ..., preset: _Optional[str] = ..., partial: _Optional[bool] = ..., missing_shards: _Optional[_Iterable[str]] = ..., hits: _Optional[_Iterable[_Union[_common_pb2.Hit, _Mapping]]] = ..., total_candidates: _Optional[int] = ..., timings: _Optional[_Iterable[_Union[StageTiming, _Mapping]]] = ..., generation: _Optional[str] = ..., notes: _Optional[_Iterable[str]] = ..., weights: _Optional[_Mapping[str, float]] = ..., rerank: _Optional[str] = ..., no_confident_match: _Optional[bool] = ..., total_matches: _Optional[int] = ..., total_files: _Optional[int] = ..., total_exact: _Optional[bool] = ..., complete: _Optional[bool] = ..., cursor: _Optional[str] = ...) -> None: ...

class RepoSpec(_message.Message):
    __slots__ = ("path", "name")
    PATH_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    path: str
    name: str
    def __init__(self, path: _Optional[str] = ..., name: _Optional[str] = ...) -> None: ...

class IndexRequest(_message.Message):
    __slots__ = ("repos",)
    REPOS_FIELD_NUMBER: _ClassVar[int]
    repos: _containers.RepeatedCompositeFieldContainer[RepoSpec]
    def __init__(self, repos: _Optional[_Iterable[_Union[RepoSpec, _Mapping]]] = ...) -> None: ...

class IndexSummary(_message.Message):
    __slots__ = ("generation", "files", "segments", "skipped", "reused_files", "parse_errors", "seconds", "bytes", "unsupported_languages", "failed_shards")
    class SkippedEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: int
        def __init__(self, key: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...
    class UnsupportedLanguagesEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: int
        def __init__(self, key: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...
    GENERATION_FIELD_NUMBER: _ClassVar[int]
    FILES_FIELD_NUMBER: _ClassVar[int]
    SEGMENTS_FIELD_NUMBER: _ClassVar[int]
    SKIPPED_FIELD_NUMBER: _ClassVar[int]
    REUSED_FILES_FIELD_NUMBER: _ClassVar[int]
    PARSE_ERRORS_FIELD_NUMBER: _ClassVar[int]
    SECONDS_FIELD_NUMBER: _ClassVar[int]
    BYTES_FIELD_NUMBER: _ClassVar[int]
    UNSUPPORTED_LANGUAGES_FIELD_NUMBER: _ClassVar[int]
    FAILED_SHARDS_FIELD_NUMBER: _ClassVar[int]
    generation: str
    files: int
    segments: int
    skipped: _containers.ScalarMap[str, int]
    reused_files: int
    parse_errors: int
    seconds: float
    bytes: int
    unsupported_languages: _containers.ScalarMap[str, int]
    failed_shards: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, generation: _Optional[str] = ..., files: _Optional[int] = ..., segments: _Optional[int] = ..., skipped: _Optional[_Mapping[str, int]] = ..., reused_files: _Optional[int] = ..., parse_errors: _Optional[int] = ..., seconds: _Optional[float] = ..., bytes: _Optional[int] = ..., unsupported_languages: _Optional[_Mapping[str, int]] = ..., failed_shards: _Optional[_Iterable[str]] = ...) -> None: ...

class IndexProgress(_message.Message):
    __slots__ = ("stage", "done", "total", "message", "summary", "unit", "repo", "rate", "eta_seconds", "shard")
    STAGE_FIELD_NUMBER: _ClassVar[int]
    DONE_FIELD_NUMBER: _ClassVar[int]
    TOTAL_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    SUMMARY_FIELD_NUMBER: _ClassVar[int]
    UNIT_FIELD_NUMBER: _ClassVar[int]
    REPO_FIELD_NUMBER: _ClassVar[int]
    RATE_FIELD_NUMBER: _ClassVar[int]
    ETA_SECONDS_FIELD_NUMBER: _ClassVar[int]
    SHARD_FIELD_NUMBER: _ClassVar[int]
    stage: str
    done: int
    total: int
    message: str
    summary: IndexSummary
    unit: str
    repo: str
    rate: float
    eta_seconds: float
    shard: str
    def __init__(self, stage: _Optional[str] = ..., done: _Optional[int] = ..., total: _Optional[int] = ..., message: _Optional[str] = ..., summary: _Optional[_Union[IndexSummary, _Mapping]] = ..., unit: _Optional[str] = ..., repo: _Optional[str] = ..., rate: _Optional[float] = ..., eta_seconds: _Optional[float] = ..., shard: _Optional[str] = ...) -> None: ...

class SyncRequest(_message.Message):
    __slots__ = ("repos",)
    REPOS_FIELD_NUMBER: _ClassVar[int]
    repos: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, repos: _Optional[_Iterable[str]] = ...) -> None: ...

class StatusRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class RepoStatus(_message.Message):
    __slots__ = ("name", "path", "files", "segments", "sync_status", "sync_error", "commit")
    NAME_FIELD_NUMBER: _ClassVar[int]
    PATH_FIELD_NUMBER: _ClassVar[int]
    FILES_FIELD_NUMBER: _ClassVar[int]
    SEGMENTS_FIELD_NUMBER: _ClassVar[int]
    SYNC_STATUS_FIELD_NUMBER: _ClassVar[int]
    SYNC_ERROR_FIELD_NUMBER: _ClassVar[int]
    COMMIT_FIELD_NUMBER: _ClassVar[int]
    name: str
    path: str
    files: int
    segments: int
    sync_status: str
    sync_error: str
    commit: str
    def __init__(self, name: _Optional[str] = ..., path: _Optional[str] = ..., files: _Optional[int] = ..., segments: _Optional[int] = ..., sync_status: _Optional[str] = ..., sync_error: _Optional[str] = ..., commit: _Optional[str] = ...) -> None: ...

class ShardStatus(_message.Message):
    __slots__ = ("modality", "shard", "replica", "address", "health", "generation", "node_id")
    MODALITY_FIELD_NUMBER: _ClassVar[int]
    SHARD_FIELD_NUMBER: _ClassVar[int]
    REPLICA_FIELD_NUMBER: _ClassVar[int]
    ADDRESS_FIELD_NUMBER: _ClassVar[int]
    HEALTH_FIELD_NUMBER: _ClassVar[int]
    GENERATION_FIELD_NUMBER: _ClassVar[int]
    NODE_ID_FIELD_NUMBER: _ClassVar[int]
    modality: str
    shard: str
    replica: int
    address: str
    health: str
    generation: str
    node_id: str
    def __init__(self, modality: _Optional[str] = ..., shard: _Optional[str] = ..., replica: _Optional[int] = ..., address: _Optional[str] = ..., health: _Optional[str] = ..., generation: _Optional[str] = ..., node_id: _Optional[str] = ...) -> None: ...

class StatusResponse(_message.Message):
    __slots__ = ("generation", "repos", "shards", "modalities", "version", "nodes", "failed_shards", "building")
    GENERATION_FIELD_NUMBER: _ClassVar[int]
    REPOS_FIELD_NUMBER: _ClassVar[int]
    SHARDS_FIELD_NUMBER: _ClassVar[int]
    MODALITIES_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    NODES_FIELD_NUMBER: _ClassVar[int]
    FAILED_SHARDS_FIELD_NUMBER: _ClassVar[int]
    BUILDING_FIELD_NUMBER: _ClassVar[int]
    generation: str
    repos: _containers.RepeatedCompositeFieldContainer[RepoStatus]
    shards: _containers.RepeatedCompositeFieldContainer[ShardStatus]
    modalities: _containers.RepeatedScalarFieldContainer[str]
    version: str
    nodes: int
    failed_shards: _containers.RepeatedScalarFieldContainer[str]
    building: IndexProgress
    def __init__(self, generation: _Optional[str] = ..., repos: _Optional[_Iterable[_Union[RepoStatus, _Mapping]]] = ..., shards: _Optional[_Iterable[_Union[ShardStatus, _Mapping]]] = ..., modalities: _Optional[_Iterable[str]] = ..., version: _Optional[str] = ..., nodes: _Optional[int] = ..., failed_shards: _Optional[_Iterable[str]] = ..., building: _Optional[_Union[IndexProgress, _Mapping]] = ...) -> None: ...

class ReadFileRequest(_message.Message):
    __slots__ = ("repo", "path", "start_line", "end_line")
    REPO_FIELD_NUMBER: _ClassVar[int]
    PATH_FIELD_NUMBER: _ClassVar[int]
    START_LINE_FIELD_NUMBER: _ClassVar[int]
    END_LINE_FIELD_NUMBER: _ClassVar[int]
    repo: str
    path: str
    start_line: int
    end_line: int
    def __init__(self, repo: _Optional[str] = ..., path: _Optional[str] = ..., start_line: _Optional[int] = ..., end_line: _Optional[int] = ...) -> None: ...

class FileSymbol(_message.Message):
    __slots__ = ("symbol", "kind", "start_line", "end_line")
    SYMBOL_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    START_LINE_FIELD_NUMBER: _ClassVar[int]
    END_LINE_FIELD_NUMBER: _ClassVar[int]
    symbol: str
    kind: str
    start_line: int
    end_line: int
    def __init__(self, symbol: _Optional[str] = ..., kind: _Optional[str] = ..., start_line: _Optional[int] = ..., end_line: _Optional[int] = ...) -> None: ...

class ReadFileResponse(_message.Message):
    __slots__ = ("repo", "path", "language", "generation", "start_line", "end_line", "total_lines", "content", "symbols")
    REPO_FIELD_NUMBER: _ClassVar[int]
    PATH_FIELD_NUMBER: _ClassVar[int]
    LANGUAGE_FIELD_NUMBER: _ClassVar[int]
    GENERATION_FIELD_NUMBER: _ClassVar[int]
    START_LINE_FIELD_NUMBER: _ClassVar[int]
    END_LINE_FIELD_NUMBER: _ClassVar[int]
    TOTAL_LINES_FIELD_NUMBER: _ClassVar[int]
    CONTENT_FIELD_NUMBER: _ClassVar[int]
    SYMBOLS_FIELD_NUMBER: _ClassVar[int]
    repo: str
    path: str
    language: str
    generation: str
    start_line: int
    end_line: int
    total_lines: int
    content: str
    symbols: _containers.RepeatedCompositeFieldContainer[FileSymbol]
    def __init__(self, repo: _Optional[str] = ..., path: _Optional[str] = ..., language: _Optional[str] = ..., generation: _Optional[str] = ..., start_line: _Optional[int] = ..., end_line: _Optional[int] = ..., total_lines: _Optional[int] = ..., content: _Optional[str] = ..., symbols: _Optional[_Iterable[_Union[FileSymbol, _Mapping]]] = ...) -> None: ...
