"""The OpenAPI 3.1 description of the HTTP JSON API (served at ``/api/v1/openapi.json``)."""

from __future__ import annotations

from typing import Any

__all__ = ["openapi"]


def _q(
    name: str, description: str, schema: dict[str, Any], *, required: bool = False, many: bool = False
) -> dict[str, Any]:
    s = {"type": "array", "items": schema} if many else schema
    out: dict[str, Any] = {"name": name, "in": "query", "description": description, "schema": s, "required": required}
    if many:
        out.update(style="form", explode=True)
    return out


_ERROR = {
    "description": "an error",
    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
}
_ERRORS = {
    "400": {**_ERROR, "description": "bad input; the message names the parameter and its value"},
    "401": {**_ERROR, "description": "no token, or one the coordinator does not know"},
    "403": {**_ERROR, "description": "the token may not read what was asked"},
    "429": {**_ERROR, "description": "too many requests in flight; retry with backoff"},
    "503": {**_ERROR, "description": "the coordinator is unavailable or has no index"},
}


def _ok(description: str, ref: str) -> dict[str, Any]:
    return {
        "description": description,
        "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{ref}"}}},
    }


def openapi(version: str) -> dict[str, Any]:
    """The description; ``version`` is fourfold's."""
    search_params = [
        _q(
            "q",
            "the query: a symbol, a quoted string, a question, a regex or a code snippet; filters may be written "
            'in it as in Zoekt (repo:NAME file:PATH -file:test lang:go ext:ts case:yes sym:NAME content:"text")',
            {"type": "string"},
            required=True,
        ),
        _q("repo", "only these repositories (repeat or comma-separate)", {"type": "string"}, many=True),
        _q("k", "hits wanted (1-1000, default 10)", {"type": "integer", "minimum": 1, "maximum": 1000}),
        _q(
            "intent",
            "force an intent (find_definition, find_references, impact_analysis, exact_match, find_similar, "
            "understand_code, localize, or their short names)",
            {"type": "string"},
        ),
        _q("preset", "quick, default or thorough", {"type": "string", "enum": ["quick", "default", "thorough"]}),
        _q("profile", "weight profile: hand or fitted", {"type": "string"}),
        _q("modality", "run exactly these modalities", {"type": "string"}, many=True),
        _q("weight", "MODALITY=W overrides", {"type": "string"}, many=True),
        _q("lang", "only these languages", {"type": "string"}, many=True),
        _q("path", "only paths matching this glob", {"type": "string"}),
        _q("regex", "the query is an RE2 regular expression", {"type": "boolean"}),
        _q("paths", "list the files whose path holds the query or matches it as a glob", {"type": "boolean"}),
        _q("cursor", "a listing's next page: the previous answer's cursor, with the same query", {"type": "string"}),
        _q(
            "context",
            "a listing's lines around each match (0-10), numbered in the snippet as grep -n -C prints them",
            {"type": "integer", "minimum": 0, "maximum": 10},
        ),
        _q("max_count", "a listing keeps each file's first N matching lines, as grep -m N", {"type": "integer"}),
        _q(
            "multiline",
            "a regex whose matches span lines, as rg -U (on) or rg -U --multiline-dotall (dotall); each line listed",
            {"type": "string", "enum": ["on", "dotall", "off"]},
        ),
        _q("case", "literal and regex matching respects case", {"type": "boolean"}),
        _q("deadline_ms", "deadline of the search (1-60000, default 5000)", {"type": "integer"}),
    ]
    auth: list[dict[str, list[str]]] = [{"bearer": []}, {"session": []}]
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "fourfold HTTP API",
            "version": version,
            "description": "Code search by intent. The same tokens and repository grants as the gRPC API: a "
            "repository the token may not read answers exactly like a missing one.",
        },
        "servers": [{"url": "/"}],
        "security": auth,
        "paths": {
            "/api/v1/search": {
                "get": {
                    "summary": "Search; the same JSON as `fourfold search --json`",
                    "operationId": "search",
                    "parameters": search_params,
                    "responses": {"200": _ok("the answer", "Answer"), **_ERRORS},
                }
            },
            "/api/v1/repositories": {
                "get": {
                    "summary": "The repositories the token may read",
                    "operationId": "repositories",
                    "responses": {"200": _ok("the repositories", "Repositories"), **_ERRORS},
                }
            },
            "/api/v1/status": {
                "get": {
                    "summary": "What the coordinator serves, as far as the token may see",
                    "operationId": "status",
                    "responses": {"200": _ok("the status", "Status"), **_ERRORS},
                }
            },
            "/api/v1/files/{repo}/{path}": {
                "get": {
                    "summary": "A file's text as indexed, with its definitions",
                    "operationId": "readFile",
                    "parameters": [
                        {"name": "repo", "in": "path", "required": True, "schema": {"type": "string"}},
                        {
                            "name": "path",
                            "in": "path",
                            "required": True,
                            "schema": {"type": "string"},
                            "description": "the file's path in the repository (slashes kept)",
                        },
                        _q("lines", "START-END, 1-based and inclusive (default: the whole file)", {"type": "string"}),
                    ],
                    "responses": {
                        "200": _ok("the file", "File"),
                        "404": {**_ERROR, "description": "no such file, or a repository the token may not read"},
                        **_ERRORS,
                    },
                }
            },
        },
        "components": {
            "securitySchemes": {
                "bearer": {"type": "http", "scheme": "bearer"},
                "session": {"type": "apiKey", "in": "cookie", "name": "fourfold_session"},
            },
            "schemas": {
                "Error": {
                    "type": "object",
                    "required": ["error"],
                    "properties": {
                        "error": {
                            "type": "object",
                            "properties": {
                                "status": {"type": "integer"},
                                "code": {"type": "string"},
                                "message": {"type": "string"},
                            },
                        }
                    },
                },
                "Hit": {
                    "type": "object",
                    "properties": {
                        "repo": {"type": "string"},
                        "path": {"type": "string"},
                        "start_line": {"type": "integer"},
                        "end_line": {"type": "integer"},
                        "symbol": {"type": ["string", "null"]},
                        "kind": {"type": ["string", "null"]},
                        "score": {"type": "number"},
                        "match_lines": {"type": "array", "items": {"type": "integer"}},
                        "demoted": {"type": "boolean"},
                        "confidence": {"type": ["number", "null"]},
                        "modalities": {
                            "type": "object",
                            "additionalProperties": {
                                "type": "object",
                                "properties": {"rank": {"type": "integer"}, "contribution": {"type": "number"}},
                            },
                        },
                    },
                },
                "Answer": {
                    "type": "object",
                    "properties": {
                        "intent": {"type": "string"},
                        "confidence": {"type": "number"},
                        "fusion_strategy": {"type": "string"},
                        "preset": {"type": "string"},
                        "partial": {"type": "boolean"},
                        "no_confident_match": {"type": "boolean"},
                        "rerank": {"type": ["string", "null"]},
                        "missing_shards": {"type": "array", "items": {"type": "string"}},
                        "generation": {"type": "string"},
                        "notes": {"type": "array", "items": {"type": "string"}},
                        "timings_ms": {"type": "object", "additionalProperties": {"type": "number"}},
                        "hits": {"type": "array", "items": {"$ref": "#/components/schemas/Hit"}},
                    },
                },
                "Repository": {
                    "type": "object",
                    "properties": {
                        "name": {"type": "string"},
                        "path": {"type": "string", "description": "only for admin tokens"},
                        "files": {"type": "integer"},
                        "segments": {"type": "integer"},
                    },
                },
                "Repositories": {
                    "type": "object",
                    "properties": {
                        "repositories": {"type": "array", "items": {"$ref": "#/components/schemas/Repository"}}
                    },
                },
                "Status": {
                    "type": "object",
                    "properties": {
                        "generation": {"type": "string"},
                        "repos": {"type": "array", "items": {"$ref": "#/components/schemas/Repository"}},
                        "shards": {"type": "array", "items": {"type": "object"}},
                        "modalities": {"type": "array", "items": {"type": "string"}},
                        "version": {"type": "string"},
                        "nodes": {"type": "integer"},
                    },
                },
                "File": {
                    "type": "object",
                    "properties": {
                        "repo": {"type": "string"},
                        "path": {"type": "string"},
                        "language": {"type": "string"},
                        "generation": {"type": "string"},
                        "start_line": {"type": "integer"},
                        "end_line": {"type": "integer"},
                        "total_lines": {"type": "integer"},
                        "content": {"type": "string"},
                        "symbols": {
                            "type": "array",
                            "items": {
                                "type": "object",
                                "properties": {
                                    "symbol": {"type": "string"},
                                    "kind": {"type": "string"},
                                    "start_line": {"type": "integer"},
                                    "end_line": {"type": "integer"},
                                },
                            },
                        },
                    },
                },
            },
        },
    }
