"""The app's files and texts: rule-set presets, the match file, score sheets, the history CSV, backups."""
