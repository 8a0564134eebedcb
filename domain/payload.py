"""A frozen dataclass as the JSON payload the log stores and hashes, and read back from it.

One codec for every event, driven by the dataclass's fields and their types, so an event type is
declared once (its fields) and nothing restates how it is written or read. Each field is written
under its own name:

* a vocabulary member as its value; ``None`` as ``null``; a tuple as a list; a nested frozen
  dataclass as an object of its fields; ``str``, ``int``, ``float`` and ``bool`` as they are (a
  number keeps the type it was given, so an event re-encodes to the bytes it was read from);
* a type the domain gives its own JSON form (the recorded task, an action, a body as received) by
  its :class:`Leaf`;
* a tuple annotated ``Annotated[tuple[X, ...], KeyedBy("name")]`` as an object keyed by each
  item's ``name`` holding the item's other fields;
* a field whose metadata is :data:`UNLESS_DEFAULT` is left out while it holds its default.

Reading is the inverse and is as forgiving as reading input: a vocabulary value matches ignoring
case (so an altered log still reads and its hash chain says where it was altered), a missing key
reads as the field's default (``None`` for an optional field without one, the value of
:func:`absent_reads_as` for a field that payloads written before it lack), and unknown keys are
ignored. A value of the wrong JSON type, or a missing key that has none of these, is a
``ValueError`` naming the type and field.

The payload's key order is irrelevant: the stored text sorts keys (``store.codec``).
"""

from __future__ import annotations

import dataclasses
import types
from collections.abc import Callable, Mapping, Sequence
from enum import Enum
from typing import (
    Annotated,
    Any,
    Generic,
    NamedTuple,
    TypeVar,
    Union,
    get_args,
    get_origin,
    get_type_hints,
)

from domain.jsontext import JsonObject, JsonValue
from domain.vocabulary import Vocabulary

T = TypeVar("T")

Encode = Callable[[Any], JsonValue]
Decode = Callable[[object], object]


class KeyedBy(NamedTuple):
    """Marks a tuple of records stored as a JSON object keyed by the field ``key`` of each
    record (``Annotated[tuple[Component, ...], KeyedBy("name")]``)."""

    key: str


UNLESS_DEFAULT: Mapping[str, object] = {"unless_default": True}
"""Field metadata: leave the field out of the payload while it holds its default, so a payload
carries no member for a feature the episode never used (an absent key reads as the default)."""


def absent_reads_as(value: object) -> Mapping[str, object]:
    """Field metadata for a field without a default that payloads written before it existed lack:
    an absent key reads as ``value`` (the constructor still requires the field)."""
    return {"absent": value}


@dataclasses.dataclass(frozen=True, slots=True)
class Leaf(Generic[T]):
    """A type the domain gives its own JSON form: how to write it and how to read it back."""

    hint: object
    encode: Callable[[T], JsonValue]
    decode: Callable[[object], T]


class _Codec(NamedTuple):
    encode: Callable[[object], JsonObject]
    decode: Callable[[Mapping[str, object]], object]


class PayloadCodecs:
    """The encoders and decoders of a family of dataclasses, built once per class from its fields
    (an unsupported field type is a ``TypeError`` when the class is first used, not a bad write)."""

    def __init__(self, leaves: Sequence[Leaf[Any]] = ()):
        self._leaves = tuple(leaves)
        self._codecs: dict[type, _Codec] = {}

    def encode(self, obj: object) -> JsonObject:
        """The payload of ``obj``: a fresh dict on every call, the caller's to keep or change."""
        return self._codec(type(obj)).encode(obj)

    def decode(self, cls: type[T], data: Mapping[str, object]) -> T:
        """``cls`` read from its payload ``data``."""
        read = self._codec(cls).decode(data)
        assert isinstance(read, cls)
        return read

    def _codec(self, cls: type) -> _Codec:
        codec = self._codecs.get(cls)
        if codec is None:
            codec = self._codecs[cls] = self._record(cls)
        return codec

    # ------------------------------------------------------------------ building
    def _record(self, cls: type) -> _Codec:
        if not dataclasses.is_dataclass(cls):
            raise TypeError(f"{cls.__name__} is not a dataclass: it has no payload form")
        hints = get_type_hints(cls, include_extras=True)
        fields = dataclasses.fields(cls)
        name = cls.__name__
        omitted = {f.name: f.default for f in fields if f.metadata.get("unless_default")}
        encoders = [(f.name, self._encoder(hints[f.name]), f.name in omitted) for f in fields]
        decoders = [(f.name, self._decoder(hints[f.name], f"{name}.{f.name}"), _absent(f, hints[f.name]))
                    for f in fields]

        def encode(obj: object) -> JsonObject:
            out: JsonObject = {}
            for field, enc, unless_default in encoders:
                value = getattr(obj, field)
                if unless_default and value == omitted[field]:
                    continue
                out[field] = enc(value)
            return out

        def decode(data: Mapping[str, object]) -> object:
            if not isinstance(data, Mapping):
                raise ValueError(f"{name}: expected an object, got {_kind(data)}")
            values: dict[str, object] = {}
            for field, dec, absent in decoders:
                if field in data:
                    values[field] = dec(data[field])
                elif absent is _REQUIRED:
                    raise ValueError(f"{name}: the payload has no {field!r}")
                elif absent is not _DEFAULT:
                    values[field] = absent
            return cls(**values)

        return _Codec(encode, decode)

    def _leaf(self, hint: object) -> Leaf[Any] | None:
        return next((leaf for leaf in self._leaves if leaf.hint is hint), None)

    def _encoder(self, hint: object) -> Encode:
        leaf = self._leaf(hint)
        if leaf is not None:
            return leaf.encode
        origin, args = get_origin(hint), get_args(hint)
        if origin is Annotated:
            keyed = next((m for m in args[1:] if isinstance(m, KeyedBy)), None)
            if keyed is None:
                return self._encoder(args[0])
            record = self._codec(_record_type(_tuple_item(args[0]))).encode
            key = keyed.key

            def keyed_encode(values: tuple[object, ...]) -> JsonValue:
                out: JsonObject = {}
                for v in values:
                    fields = record(v)
                    out[str(fields.pop(key))] = fields
                return out
            return keyed_encode
        if origin in (Union, types.UnionType):
            inner = self._encoder(_optional(hint, args))
            return lambda v: None if v is None else inner(v)
        if origin is tuple:
            each = self._encoder(_tuple_item(hint))
            return lambda v: [each(x) for x in v]
        if isinstance(hint, type) and issubclass(hint, Enum):
            return lambda v: v.value
        if isinstance(hint, type) and dataclasses.is_dataclass(hint):
            return self._codec(hint).encode
        if hint in (str, int, float, bool):
            return _same
        raise TypeError(f"no JSON form for {hint!r}")

    def _decoder(self, hint: object, where: str) -> Decode:
        leaf = self._leaf(hint)
        if leaf is not None:
            return leaf.decode
        origin, args = get_origin(hint), get_args(hint)
        if origin is Annotated:
            keyed = next((m for m in args[1:] if isinstance(m, KeyedBy)), None)
            if keyed is None:
                return self._decoder(args[0], where)
            read = self._codec(_record_type(_tuple_item(args[0]))).decode
            key = keyed.key

            def keyed_decode(value: object) -> object:
                if not isinstance(value, Mapping):
                    raise ValueError(f"{where}: expected an object, got {_kind(value)}")
                return tuple(read({**fields, key: k}) if isinstance(fields, Mapping)
                             else _not_object(where, fields) for k, fields in value.items())
            return keyed_decode
        if origin in (Union, types.UnionType):
            inner = self._decoder(_optional(hint, args), where)
            return lambda v: None if v is None else inner(v)
        if origin is tuple:
            each = self._decoder(_tuple_item(hint), where)

            def tuple_decode(value: object) -> object:
                if not isinstance(value, list):
                    raise ValueError(f"{where}: expected a list, got {_kind(value)}")
                return tuple(each(x) for x in value)
            return tuple_decode
        if isinstance(hint, type) and issubclass(hint, Vocabulary):
            return hint.read
        if isinstance(hint, type) and dataclasses.is_dataclass(hint):
            nested = self._codec(hint).decode

            def record_decode(value: object) -> object:
                if not isinstance(value, Mapping):
                    raise ValueError(f"{where}: expected an object, got {_kind(value)}")
                return nested(value)
            return record_decode
        if hint in _SCALARS:
            accepts = _SCALARS[hint]

            def scalar_decode(value: object) -> object:
                if not accepts(value):
                    raise ValueError(f"{where}: expected {_name(hint)}, got {_kind(value)}")
                return value
            return scalar_decode
        raise TypeError(f"no JSON form for {hint!r}")


_REQUIRED = object()
_DEFAULT = object()
"""How a decoder treats an absent key: refuse it, or let the dataclass fill in its default."""

_SCALARS: dict[object, Callable[[object], bool]] = {
    str: lambda v: isinstance(v, str),
    bool: lambda v: isinstance(v, bool),
    int: lambda v: isinstance(v, int) and not isinstance(v, bool),
    float: lambda v: isinstance(v, int | float) and not isinstance(v, bool),
}
"""What each scalar field accepts: a ``float`` field takes a JSON integer as it is (the text it
was read from is the text it writes back)."""


def _same(value: JsonValue) -> JsonValue:
    return value


def _absent(field: dataclasses.Field[Any], hint: object) -> object:
    if "absent" in field.metadata:
        return field.metadata["absent"]
    if field.default is not dataclasses.MISSING or field.default_factory is not dataclasses.MISSING:
        return _DEFAULT
    origin = get_origin(hint)
    if origin in (Union, types.UnionType) and type(None) in get_args(hint):
        return None
    return _REQUIRED


def _optional(hint: object, args: tuple[object, ...]) -> object:
    others = [a for a in args if a is not type(None)]
    if len(others) != 1 or len(args) != 2:
        raise TypeError(f"no JSON form for {hint!r}: only X | None unions are stored")
    return others[0]


def _tuple_item(hint: object) -> object:
    args = get_args(hint)
    if get_origin(hint) is not tuple or len(args) != 2 or args[1] is not Ellipsis:
        raise TypeError(f"no JSON form for {hint!r}: only tuple[X, ...] is stored")
    return args[0]


def _record_type(hint: object) -> type:
    if not (isinstance(hint, type) and dataclasses.is_dataclass(hint)):
        raise TypeError(f"no JSON form for {hint!r}: only dataclasses are keyed")
    return hint


def _not_object(where: str, value: object) -> object:
    raise ValueError(f"{where}: expected an object, got {_kind(value)}")


def _kind(value: object) -> str:
    return "null" if value is None else type(value).__name__


def _name(hint: object) -> str:
    return getattr(hint, "__name__", repr(hint))
