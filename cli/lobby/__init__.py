"""The way into a networked table: ``lancards host`` and ``lancards join``, the lobby phase they
share, and the started table they lead to (also what ``lancards resume`` reopens)."""
