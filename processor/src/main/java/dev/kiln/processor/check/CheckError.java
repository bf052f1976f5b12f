package dev.kiln.processor.check;

import dev.kiln.processor.diag.Message;
import dev.kiln.processor.ir.Site;

/** A catalogued error a check found at {@code site}, with the message's arguments. */
public record CheckError(Site site, Message message, Object... args) {}
