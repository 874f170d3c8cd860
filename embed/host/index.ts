export { createEmbedForwarder, DEFAULT_SPEND_CEILING, DEFAULT_THROTTLE_PER_MINUTE, type ComponentRequest, type EmbedForwarder, type EmbedForwarderOptions, type ForwardedAnswer } from './core';
export { fileSpendStore, type SpendStore } from './spend-store';
export { humanlikeKoa, type KoaAdapterOptions } from './koa';
export { humanlikeExpress, type ExpressAdapterOptions } from './express';
