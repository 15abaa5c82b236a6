/**
 * The typed client of the Automotive Inference API, for Node (20.11+): everything the browser
 * entry has, plus webhook verification (HMAC with `node:crypto`).
 */
export * from './browser.js';
export { verifyWebhook, type WebhookEvent } from './webhooks.js';
