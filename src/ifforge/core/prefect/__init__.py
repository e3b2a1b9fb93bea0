"""Prefect: its environment for this project (`env`, before prefect is imported) and a local server
(`server`). Absolute imports only: `import prefect` in here is the real package."""
