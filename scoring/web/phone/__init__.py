"""The phone's room: whoever holds a table's token (the QR code on its sheet, or the short code typed
in) enters and confirms that table's deals; `limit` bounds wrong short codes from one address."""
