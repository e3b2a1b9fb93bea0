"""Scoring: parse responses, compare with gold answers, aggregate, report."""
