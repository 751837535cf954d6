from fourfold.v1 import common_pb2 as _common_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class ShardSearchRequest(_message.Message):
    __slots__ = ("query", "k", "intent", "repos", "path_glob", "languages", "case_sensitive", "options", "generation", "shards")
    class OptionsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    QUERY_FIELD_NUMBER: _ClassVar[int]
    K_FIELD_NUMBER: _ClassVar[int]
    INTENT_FIELD_NUMBER: _ClassVar[int]
    REPOS_FIELD_NUMBER: _ClassVar[int]
    PATH_GLOB_FIELD_NUMBER: _ClassVar[int]
    LANGUAGES_FIELD_NUMBER: _ClassVar[int]
    CASE_SENSITIVE_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    GENERATION_FIELD_NUMBER: _ClassVar[int]
    SHARDS_FIELD_NUMBER: _ClassVar[int]
    query: str
    k: int
    intent: str
    repos: _containers.RepeatedScalarFieldContainer[str]
    path_glob: str
    languages: _containers.RepeatedScalarFieldContainer[str]
    case_sensitive: bool
    options: _containers.ScalarMap[str, str]
    generation: str
    shards: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, query: _Optional[str] = ..., k: _Optional[int] = ..., intent: _Optional[str] = ..., repos: _Optional[_Iterable[str]] = ..., path_glob: _Optional[str] = ..., languages: _Optional[_Iterable[str]] = ..., case_sensitive: _Optional[bool] = ..., options: _Optional[_Mapping[str, str]] = ..., generation: _Optional[str] = ..., shards: _Optional[_Iterable[str]] = ...) -> None: ...

class ShardSearchResponse(_message.Message):
    __slots__ = ("hits", "total_matches", "modality", "shard", "generation", "notes", "seconds", "follow_ups", "total_files", "line_counts", "total_lower_bound", "absence_notes")
    HITS_FIELD_NUMBER: _ClassVar[int]
    TOTAL_MATCHES_FIELD_NUMBER: _ClassVar[int]
    MODALITY_FIELD_NUMBER: _ClassVar[int]
    SHARD_FIELD_NUMBER: _ClassVar[int]
    GENERATION_FIELD_NUMBER: _ClassVar[int]
    NOTES_FIELD_NUMBER: _ClassVar[int]
    SECONDS_FIELD_NUMBER: _ClassVar[int]
    FOLLOW_UPS_FIELD_NUMBER: _ClassVar[int]
    TOTAL_FILES_FIELD_NUMBER: _ClassVar[int]
    LINE_COUNTS_FIELD_NUMBER: _ClassVar[int]
    TOTAL_LOWER_BOUND_FIELD_NUMBER: _ClassVar[int]
    ABSENCE_NOTES_FIELD_NUMBER: _ClassVar[int]
    hits: _containers.RepeatedCompositeFieldContainer[_common_pb2.Hit]
    total_matches: int
    modality: str
    shard: str
    generation: str
    notes: _containers.RepeatedScalarFieldContainer[str]
    seconds: float
    follow_ups: _containers.RepeatedCompositeFieldContainer[FollowUp]
    total_files: int
    line_counts: bool
    total_lower_bound: bool
    absence_notes: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, hits: _Optional[_Iterable[_Union[_common_pb2.Hit, _Mapping]]] = ..., total_matches: _Optional[int] = ..., modality: _Optional[str] = ..., shard: _Optional[str] = ..., generation: _Optional[str] = ..., notes: _Optional[_Iterable[str]] = ..., seconds: _Optional[float] = ..., follow_ups: _Optional[_Iterable[_Union[FollowUp, _Mapping]]] = ..., total_files: _Optional[int] = ..., line_counts: _Optional[bool] = ..., total_lower_bound: _Optional[bool] = ..., absence_notes: _Optional[_Iterable[str]] = ...) -> None: ...

class FollowUp(_message.Message):
    __slots__ = ("repos", "options", "if_empty")
    class OptionsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    REPOS_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    IF_EMPTY_FIELD_NUMBER: _ClassVar[int]
    repos: _containers.RepeatedScalarFieldContainer[str]
    options: _containers.ScalarMap[str, str]
    if_empty: bool
    def __init__(self, repos: _Optional[_Iterable[str]] = ..., options: _Optional[_Mapping[str, str]] = ..., if_empty: _Optional[bool] = ...) -> None: ...

class ShardSearchResponses(_message.Message):
    __slots__ = ("results", "errors")
    RESULTS_FIELD_NUMBER: _ClassVar[int]
    ERRORS_FIELD_NUMBER: _ClassVar[int]
    results: _containers.RepeatedCompositeFieldContainer[ShardSearchResponse]
    errors: _containers.RepeatedCompositeFieldContainer[ShardError]
    def __init__(self, results: _Optional[_Iterable[_Union[ShardSearchResponse, _Mapping]]] = ..., errors: _Optional[_Iterable[_Union[ShardError, _Mapping]]] = ...) -> None: ...

class ShardError(_message.Message):
    __slots__ = ("shard", "message")
    SHARD_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    shard: str
    message: str
    def __init__(self, shard: _Optional[str] = ..., message: _Optional[str] = ...) -> None: ...

class InfoRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class InfoResponse(_message.Message):
    __slots__ = ("modality", "shard", "generation", "replica", "repos", "segments", "ready", "node_id", "pid", "error", "shards")
    MODALITY_FIELD_NUMBER: _ClassVar[int]
    SHARD_FIELD_NUMBER: _ClassVar[int]
    GENERATION_FIELD_NUMBER: _ClassVar[int]
    REPLICA_FIELD_NUMBER: _ClassVar[int]
    REPOS_FIELD_NUMBER: _ClassVar[int]
    SEGMENTS_FIELD_NUMBER: _ClassVar[int]
    READY_FIELD_NUMBER: _ClassVar[int]
    NODE_ID_FIELD_NUMBER: _ClassVar[int]
    PID_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    SHARDS_FIELD_NUMBER: _ClassVar[int]
    modality: str
    shard: str
    generation: str
    replica: int
    repos: _containers.RepeatedScalarFieldContainer[str]
    segments: int
    ready: bool
    node_id: str
    pid: int
    error: str
    shards: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, modality: _Optional[str] = ..., shard: _Optional[str] = ..., generation: _Optional[str] = ..., replica: _Optional[int] = ..., repos: _Optional[_Iterable[str]] = ..., segments: _Optional[int] = ..., ready: _Optional[bool] = ..., node_id: _Optional[str] = ..., pid: _Optional[int] = ..., error: _Optional[str] = ..., shards: _Optional[_Iterable[str]] = ...) -> None: ...
