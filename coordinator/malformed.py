"""Requests that are not valid messages get INVALID_ARGUMENT in words, not UNKNOWN and a traceback.

gRPC deserialises a request before any handler runs; when the bytes are not a valid message (a
truncated or corrupt one, a string field holding invalid UTF-8) it answers ``UNKNOWN: Unexpected
<class 'google.protobuf.message.DecodeError'>`` and logs a traceback. :class:`DecodeGuard` takes
the bytes undecoded and decodes them inside the handler, so a bad request is the caller's fault,
said plainly: ``INVALID_ARGUMENT: the request is not a valid fourfold.v1.SearchRequest message``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import grpc

__all__ = ["DecodeGuard"]

#: Services whose requests are decoded here (the public API; health and reflection are gRPC's own).
GUARDED_PREFIX = "/fourfold.v1."


def _message_name(method: str) -> str:
    """``/fourfold.v1.Coordinator/Search`` -> ``fourfold.v1.SearchRequest`` (the proto's naming)."""
    package = method.strip("/").split("/", 1)[0].rsplit(".", 1)[0]
    return f"{package}.{method.rsplit('/', 1)[-1]}Request"


class DecodeGuard(grpc.aio.ServerInterceptor):
    """Decodes each unary request of a fourfold service itself and refuses a bad one in words."""

    async def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], Awaitable[grpc.RpcMethodHandler]],
        handler_call_details: grpc.HandlerCallDetails,
    ) -> grpc.RpcMethodHandler:
        handler = await continuation(handler_call_details)
        method = handler_call_details.method
        if (
            handler is None
            or not method.startswith(GUARDED_PREFIX)
            or handler.request_streaming
            or handler.request_deserializer is None
        ):
            return handler
        decode = handler.request_deserializer
        refusal = (
            f"the request is not a valid {_message_name(method)} message (corrupt or truncated bytes, or a "
            "string field that is not UTF-8); build it with the published fourfold.v1 protos"
        )

        async def parse(raw: bytes, context: grpc.aio.ServicerContext) -> Any:
            try:
                return decode(raw)
            except Exception:  # noqa: BLE001 - any decoding failure is the caller's malformed request
                await context.abort(grpc.StatusCode.INVALID_ARGUMENT, refusal)

        if handler.response_streaming:
            inner_stream = handler.unary_stream

            async def stream(raw: bytes, context: grpc.aio.ServicerContext) -> AsyncIterator[Any]:
                request = await parse(raw, context)
                async for item in inner_stream(request, context):
                    yield item

            return grpc.unary_stream_rpc_method_handler(
                stream, request_deserializer=None, response_serializer=handler.response_serializer
            )
        inner_unary = handler.unary_unary

        async def unary(raw: bytes, context: grpc.aio.ServicerContext) -> Any:
            return await inner_unary(await parse(raw, context), context)

        return grpc.unary_unary_rpc_method_handler(
            unary, request_deserializer=None, response_serializer=handler.response_serializer
        )
