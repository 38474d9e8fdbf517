"""Importers and exporters: damaged text, .docx, Moodle XML, GIFT in; JSON, Anki, Moodle
XML, GIFT out. Every importer builds a ``pack.DraftPaper`` and writes it with
``pack.write_pack``; every text file is read with ``encoding.read_text_file``."""
