"""The read side: the one visibility gate every read passes (``queries``) and the audit of a deal's
log (``audit``). It only reads."""
