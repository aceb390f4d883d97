/**
 * Features and their pieces as they travel between stages: WKB bytes, properties, ids, and their
 * coders.
 */
package io.tilebeam.transforms.feature;
