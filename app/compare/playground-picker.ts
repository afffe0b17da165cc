/** /playground's model picker, as the page and its server code share it (playground-models.server.ts). */

export const PICKER_PAGE_SIZE = 20;
/** Deeper than this, a longer search beats paging; it also bounds the records one request reads. */
export const PICKER_MAX_PAGE = 50;

export interface PlaygroundModel {
  id: string;
  /** "Chat", or the task the playground's widget runs. */
  kind: string;
  /** The providers and endpoints that run it here, as the playground's picker names them. */
  runners: string[];
}

export interface PlaygroundMatches {
  models: PlaygroundModel[];
  /** Whether a later page holds more. */
  more: boolean;
  /** Whether some provider maps more matches than were read: a longer search finds the rest. */
  partial: boolean;
}
