"""The Flet app: a plain-Python view model (`state`) and the screens that render it (`app`, `screens`)."""
