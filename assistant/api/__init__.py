"""HTTP and WebSocket routes of the assistant, one router per concern."""
