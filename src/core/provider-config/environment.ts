/** The process environment as the provider reads it: passed in, so tests never touch process.env. */
export type Environment = Readonly<Record<string, string | undefined>>;
