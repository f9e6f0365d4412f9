// @flow-less sample
/** JSDoc comment. */
import React from 'react';

export function App({ name }) {
  const greeting = `Hello ${name.toUpperCase()}!`;
  const re = /ab+c/gi;
  return <div className="app" id={name}>Hi &amp; {greeting}</div>;
}
