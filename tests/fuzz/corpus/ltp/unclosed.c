{"linux-git", "0123456" /* unclosed comment
{"linux-git", "unclosed string
