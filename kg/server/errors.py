"""The one error type of the server: an answer the client should get, with its HTTP status.

Raised by the protocol reader, the worker's jobs and the pool alike; the routes turn it into
a response. Library errors (kg.errors) carry their own status and become one here.
"""

from __future__ import annotations

from kg.errors import KgError, QueryError


class HttpError(Exception):
    """status (int): the HTTP status to send. message (str): one line for the client."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message

    @classmethod
    def of(cls, error: KgError) -> HttpError:
        """A library error as an answer: a query error says its status, anything else is ours."""
        status = error.http_status if isinstance(error, QueryError) else 500
        return cls(status, str(error))
