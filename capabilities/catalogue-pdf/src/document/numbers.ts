// What a table cell holding a number looks like: table columns of them are set on the right and their
// words cut last (render/blocks/table.ts), and a short row's last amount goes under the last column
// (document/prepare.ts).

/**
 * A cell that is a number: an amount (with any currency sign, before or after it, or a currency code
 * after it), a count, a date or time, a percentage, a range of them.
 */
export const NUMBER = /^[-+−(]?\p{Sc}?\s?\d[\d\s.,'’:/–-]*%?\)?(?:\s?[\p{Sc}%]|\s?[A-Z]{3})?$/u;

/** A cell standing for no number in a column of them: empty, a dash, "n/a". */
export const NO_NUMBER = /^(?:|[-–—−]|n\/?a)$/iu;
