"""The agents' tools, declared once: one per action type, read from the action models.

An agent that acts by calling tools sees each action type as a function: its name is the
``action_type``, its description the action model's docstring, its parameters the model's other
fields, with their types, the vocabulary's values as an enum, the model's limits and a sentence
each on what to put there (:data:`PARAMETER_TEXT`). :data:`TOOLS` holds them in the action union's
order, and every place that shows the actions as tools renders them from it, so an action or a
vocabulary value added to ``domain`` reaches all of them at once:

* MCP's ``tools/list`` (``api/mcp.py``): :attr:`Tool.schema`, the action model's own JSON schema,
  the one ``/schema`` shows (MCP's recorded wire exchanges pin it);
* the chat tool-calling schema (``baseline/chat.py``): :meth:`Tool.chat`;
* the TRL adapter's tool methods (``baseline/trl_env.py``): a signature of :meth:`Parameter.hint`
  types and a Google-style docstring (:meth:`Tool.docstring`), which transformers'
  ``get_json_schema`` reads back as :meth:`Tool.function`.

The texts are what an agent is told, not rules: what an action does stays in ``domain.decide``,
what input is accepted in ``domain.actions``.
"""

from __future__ import annotations

import textwrap
import types
import typing
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from domain.actions import Action
from domain.vocabulary import Vocabulary
from support.schemas import inline_refs

JsonSchema = dict[str, Any]

TOOL_TEXT: dict[str, str] = {
    "add_tag": "Add a tag that records a decision about the ticket.",
    "remove_tag": "Remove a tag added earlier.",
}
"""The description of a tool whose action model has no docstring (the model's docstring is what
``/schema`` shows, so it is not added there for the tools' sake)."""

PARAMETER_TEXT: dict[str, str] = {
    "priority": "How urgent the ticket is.",
    "queue": "The team that should work the ticket.",
    "tag": "The tag.",
    "reply_text": "The reply in prose: greet the customer by first name, state the decision and the "
                  "facts they need, close politely.",
    "note": "The note, for colleagues only.",
    "policy_id": "The policy to read.",
    "resolution_code": "How the ticket ends.",
    "amount": "Dollars (at most two decimals), no more than the ticket says was charged and not "
              "yet refunded.",
    "reason": "Why, for the account record; never sent to the customer.",
    "new_email": "The new address.",
    "severity": "sev1 (production down, all hands), sev2 (degraded) or sev3 (minor).",
    "message": "One clear question for the customer, or a request for what the ticket lacks.",
}
"""What to put in each field, by field name (a field means the same in every action that has it);
the value's limits (:data:`LIMITS`) are added from the action model."""

LIMITS = ("minLength", "maxLength", "pattern", "exclusiveMinimum", "minimum", "maximum")
"""The JSON-schema limits of a field the chat schema carries over from the action model."""

JSON_TYPES: dict[type, str] = {str: "string", float: "number"}


@dataclass(frozen=True, slots=True)
class Parameter:
    """One field of an action, as a tool's argument."""

    name: str
    kind: type
    """``str`` or ``float``: what the value is in JSON."""
    vocabulary: type[Vocabulary] | None
    """The closed vocabulary the value comes from, if any."""
    required: bool
    description: str
    """What to put there, with its length limit (one line)."""
    schema: JsonSchema
    """The field's JSON schema as the action model gives it (references inlined)."""

    @property
    def choices(self) -> list[str] | None:
        return None if self.vocabulary is None else self.vocabulary.allowed()

    def hint(self) -> Any:
        """The type hint that says this parameter to a reader of signatures (transformers'
        ``get_json_schema``): the vocabulary (an enum of its values) or the JSON type, or None
        too when the field is optional."""
        base: Any = self.vocabulary or self.kind
        return base if self.required else base | None

    def limits(self) -> JsonSchema:
        """The field's limits in the action model (a length, a pattern, a range)."""
        return _limits(self.schema)

    def function(self) -> JsonSchema:
        """The parameter as a signature and a Google-style docstring say it (see :meth:`Tool.function`)."""
        out: JsonSchema = {"type": JSON_TYPES[self.kind], "description": self.description}
        if self.choices is not None:
            out["enum"] = self.choices
        if not self.required:
            out["nullable"] = True
        return out

    def chat(self) -> JsonSchema:
        """The parameter in the chat tool-calling schema: its type, values, limits and what to put there."""
        out: JsonSchema = {"type": JSON_TYPES[self.kind]}
        if self.choices is not None:
            out["enum"] = self.choices
        return {**out, **self.limits(), "description": self.description}


@dataclass(frozen=True, slots=True)
class Tool:
    """One action type as a tool."""

    name: str
    description: str
    """What the action does, in one paragraph (the model's docstring, or :data:`TOOL_TEXT`)."""
    parameters: tuple[Parameter, ...]
    model: type[BaseModel]
    schema: JsonSchema
    """The action model's own JSON schema, references inlined: what ``/schema`` and MCP show."""

    @property
    def required(self) -> list[str]:
        return [p.name for p in self.parameters if p.required]

    def function(self) -> JsonSchema:
        """The tool as a typed Python function documented Google-style says it: what transformers'
        ``get_json_schema`` reads from the TRL adapter's methods (``required`` only when some
        parameter is; no return, which the model never writes)."""
        parameters: JsonSchema = {"type": "object",
                                  "properties": {p.name: p.function() for p in self.parameters}}
        if self.required:
            parameters["required"] = self.required
        return {"name": self.name, "description": self.description, "parameters": parameters}

    def chat(self) -> JsonSchema:
        """The tool as an OpenAI-compatible function for ``tools=``: standing alone (no ``$ref``),
        no argument but the action's fields."""
        return {"type": "function", "function": {
            "name": self.name, "description": self.description,
            "parameters": {"type": "object",
                           "properties": {p.name: p.chat() for p in self.parameters},
                           "required": self.required, "additionalProperties": False}}}

    def docstring(self, returns: str) -> str:
        """A Google-style docstring of the tool as a method: the description, ``Args:`` (one
        entry per parameter) and ``Returns:`` (``returns``). The description and the return are
        one line each, as a reader keeps their line breaks (an argument's are joined)."""
        lines = [self.description]
        if self.parameters:
            lines += ["", "Args:"]
            for p in self.parameters:
                lines += textwrap.wrap(f"{p.name}: {p.description}", 100, initial_indent="    ",
                                       subsequent_indent="        ")
        return "\n".join([*lines, "", "Returns:", "    " + returns])


def _limits(schema: JsonSchema) -> JsonSchema:
    """The :data:`LIMITS` of a field's schema (of its value, when the field may also be null)."""
    branch = next((b for b in schema.get("anyOf", []) if b.get("type") != "null"), schema)
    return {k: branch[k] for k in LIMITS if k in branch}


def _paragraph(text: str) -> str:
    """A docstring as one line, its reStructuredText quotes as plain ones."""
    return " ".join(text.split()).replace("``", "'")


def _parameter(model: type[BaseModel], name: str, schema: JsonSchema) -> Parameter:
    field = model.model_fields[name]
    annotation = field.annotation
    if typing.get_origin(annotation) in (types.UnionType, typing.Union):
        annotation = next(a for a in typing.get_args(annotation) if a is not type(None))
    vocabulary = annotation if isinstance(annotation, type) and issubclass(annotation, Vocabulary) else None
    kind = str if vocabulary is not None else annotation
    if kind not in JSON_TYPES:
        raise TypeError(f"{model.__name__}.{name}: no tool parameter type for {annotation!r}")
    description = PARAMETER_TEXT[name]
    limit = _limits(schema).get("maxLength")
    if limit is not None and kind is str:
        description = f"{description.removesuffix('.')} (at most {limit} characters)."
    return Parameter(name, kind, vocabulary, field.is_required(), description, schema)


def _tool(model: type[BaseModel]) -> Tool:
    schema = inline_refs(model.model_json_schema())
    name = model.model_fields["action_type"].default
    text = schema.get("description") or TOOL_TEXT[name]
    parameters = tuple(_parameter(model, field, schema["properties"][field])
                       for field in model.model_fields if field != "action_type")
    return Tool(name, _paragraph(text), parameters, model, schema)


def _models() -> tuple[type[BaseModel], ...]:
    """The action models, in the union's order."""
    union = typing.get_args(Action)[0]
    return tuple(typing.get_args(union))


TOOLS: tuple[Tool, ...] = tuple(_tool(model) for model in _models())
"""One tool per action type, in the action union's (and ``ActionType``'s) order."""
TOOLS_BY_NAME: dict[str, Tool] = {tool.name: tool for tool in TOOLS}
