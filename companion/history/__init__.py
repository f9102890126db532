"""The history: statistics over stored matches, what-if rescoring, and the scored history kept for all
sessions. Plain functions of records; never imports storage, flet or tinydb."""
