"""JSON schemas made to stand alone: every ``$ref`` to a definition replaced by the definition.

What pydantic writes refers to shared definitions (``$defs``); OpenAPI, MCP's tool list and the
tools' declaration embed a schema somewhere those references do not resolve.
"""

from __future__ import annotations

from typing import Any


def inline_refs(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` with its ``$defs`` substituted in place (a referring node's own members kept
    beside the definition's) and dropped. Our schemas are not recursive, so plain substitution
    terminates."""
    defs = schema.get("$defs", {})

    def walk(node: Any) -> Any:
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.startswith("#/$defs/"):
                merged = {**defs[ref.removeprefix("#/$defs/")], **{k: v for k, v in node.items()
                                                                   if k != "$ref"}}
                return walk(merged)
            return {k: walk(v) for k, v in node.items() if k != "$defs"}
        if isinstance(node, list):
            return [walk(v) for v in node]
        return node

    result: dict[str, Any] = walk(schema)
    return result
