"""Installed as `sitecustomize` in the API fuzz's virtual environment only.

CPython 3.11 (3.11.7 on the build machines) can raise SystemError ("AST constructor
recursion depth mismatch", python/cpython#106905) from `ast.parse` on a deep stack.
Hypothesis parses a lambda's source file to print the lambda in a strategy's
description, and schemathesis builds such strategies while it generates cases, so
the bug can stop a fuzz run that found nothing. A description is only a label: on
that error the lambda is described as Hypothesis describes one it cannot read.
"""

try:
    import hypothesis.internal.lambda_sources as _sources
except ImportError:  # pip and the checks run before Hypothesis is installed
    _sources = None

if _sources is not None:
    _describe = _sources._lambda_description

    def _lambda_description(f, *args, **kwargs):
        try:
            return _describe(f, *args, **kwargs)
        except SystemError:
            return "lambda: <unknown>"

    _sources._lambda_description = _lambda_description
