"""Showdown: the pinned Node packages, their installer and the bridge client."""
