/** Words the renderer adds itself, in the document's language (English when it has none of these). */
export interface Labels {
  contents: string;
  page(n: number, of: number): string;
}

const LABELS: Record<string, Labels> = {
  en: { contents: "Contents", page: (n, of) => `Page ${n} of ${of}` },
  de: { contents: "Inhalt", page: (n, of) => `Seite ${n} von ${of}` },
  fr: { contents: "Table des matières", page: (n, of) => `Page ${n} sur ${of}` },
  es: { contents: "Índice", page: (n, of) => `Página ${n} de ${of}` },
  it: { contents: "Indice", page: (n, of) => `Pagina ${n} di ${of}` },
  nl: { contents: "Inhoud", page: (n, of) => `Pagina ${n} van ${of}` },
  pt: { contents: "Índice", page: (n, of) => `Página ${n} de ${of}` },
  pl: { contents: "Spis treści", page: (n, of) => `Strona ${n} z ${of}` },
  el: { contents: "Περιεχόμενα", page: (n, of) => `Σελίδα ${n} από ${of}` },
  ru: { contents: "Содержание", page: (n, of) => `Страница ${n} из ${of}` },
  uk: { contents: "Зміст", page: (n, of) => `Сторінка ${n} з ${of}` },
};

/** Labels for a BCP 47 tag, by its primary language. */
export function labelsFor(language: string | undefined): Labels {
  const primary = (language ?? "en").split("-")[0]!.toLowerCase();
  return LABELS[primary] ?? LABELS.en!;
}
