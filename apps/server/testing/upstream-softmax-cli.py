"""Runs softmax-cli's own `softmax` command (its typer app, from a source tree given by path, never
a copy in this repository) under Debian's /usr/bin/python3 and Debian's packages.

Usage: /usr/bin/python3 upstream-softmax-cli.py SOFTMAX_SRC_DIR [softmax arguments...]

softmax-cli declares typer>=0.19, pydantic 2 (through fastapi>=0.115) and Python 3.12; Debian
bookworm has typer 0.7, fastapi 0.92 with pydantic 1.10 and Python 3.11. Three library calls of
softmax-cli's differ between those versions, and each is bridged here to the older library's own
spelling of the same call; nothing of softmax-cli's is replaced:

- typer 0.7's `typer.Argument(default, ...)` has no default for `default` (later typers default it
  to `...`, a required argument), and `set-token` calls `typer.Argument(help=...)` at import:
  "TypeError: Argument() missing 1 required positional argument: 'default'".
- typer 0.7 reads `Optional[str]` but not PEP 604's `str | None` (`status --server`): it raises
  "RuntimeError: Type not yet supported: str | None" when it builds the command line, for every
  command. The annotation is handed over as the `typing.Union` it is equal to.
- pydantic 1.10 spells pydantic 2's `Model.model_validate(data)` as `Model.parse_obj(data)`
  (`status` validates /whoami's answer with it).

`softmax login` wants a terminal (the test runs it under script(1)); the browser it opens is
whatever `BROWSER` names (Python's webbrowser module).
"""

import sys
import types
import typing

import pydantic
import typer
import typer.main

sys.path.insert(0, sys.argv[1])

_argument = typer.Argument


def _argument_with_required_default(default: typing.Any = ..., **kwargs: typing.Any) -> typing.Any:
    return _argument(default, **kwargs)


typer.Argument = _argument_with_required_default

_params_from_function = typer.main.get_params_from_function


def _params_with_optional_unions(func: typing.Callable[..., typing.Any]) -> typing.Any:
    params = _params_from_function(func)
    for param in params.values():
        if isinstance(param.annotation, types.UnionType):
            param.annotation = typing.Union[param.annotation.__args__]
    return params


typer.main.get_params_from_function = _params_with_optional_unions

if not hasattr(pydantic.BaseModel, "model_validate"):
    pydantic.BaseModel.model_validate = classmethod(lambda cls, data: cls.parse_obj(data))

from softmax.cli import app  # noqa: E402

sys.argv = ["softmax", *sys.argv[2:]]
app()
